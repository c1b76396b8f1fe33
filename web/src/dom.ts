/** A small DOM builder: the app draws its screens with plain elements, no framework. */
type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, unknown> & { on?: Record<string, (event: Event) => void> };

export function h(tag: string, attrs: Attrs | null = null, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs ?? {})) {
    if (key === "on") {
      for (const [name, handler] of Object.entries(value as Record<string, (e: Event) => void>)) {
        element.addEventListener(name, handler);
      }
    } else if (key === "html") {
      element.innerHTML = String(value);
    } else if (value === true) {
      element.setAttribute(key, "");
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(key, String(value));
    }
  }
  append(element, children);
  return element;
}

function append(parent: HTMLElement, children: Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else if (child !== null && child !== undefined && child !== false) {
      parent.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Replace everything in `target` with `children`. */
export function mount(target: HTMLElement, ...children: Child[]): void {
  target.replaceChildren();
  append(target, children);
}

/** A one-line notice: info, or an error a person can read (role=alert is announced). */
export function notice(text: string, kind: "info" | "error" = "info"): HTMLElement {
  return h("p", { class: `notice ${kind}`, role: kind === "error" ? "alert" : "status" }, text);
}
