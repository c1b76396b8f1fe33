/** Just enough Markdown for the rule texts of docs/games/: headings, lists, tables (as real
 * tables, each in a box that scrolls on a narrow screen), code, bold and emphasis; and the
 * plain rule texts (paragraphs and lines as written). Everything is escaped first: no HTML
 * from a text runs. */
function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function inline(text: string): string {
  return escape(text)
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\*([^*]+)\*/g, "<em>$1</em>")
    .replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
}

const TABLE_ROW = /^\s*\|(.*)\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

/** A table row's cells: `| a | b \| c |` → ["a", "b | c"]. */
function cells(line: string): string[] {
  const inner = TABLE_ROW.exec(line)?.[1] ?? line;
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

function table(lines: string[]): string {
  const [head, , ...body] = lines;
  const row = (line: string, tag: "th" | "td") => `<tr>${cells(line).map((c) => `<${tag}${tag === "th" ? ' scope="col"' : ""}>${inline(c)}</${tag}>`).join("")}</tr>`;
  return `<div class="scroll"><table class="rules-table"><thead>${row(head, "th")}</thead><tbody>${body.map((l) => row(l, "td")).join("")}</tbody></table></div>`;
}

export function markdown(source: string): string {
  const out: string[] = [];
  let list = false;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(`<p>${inline(paragraph.join(" "))}</p>`);
    paragraph = [];
    if (list) out.push("</ul>");
    list = false;
  };
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (TABLE_ROW.test(line) && TABLE_RULE.test(lines[i + 1] ?? "")) {
      flush();
      const rows = [line, lines[i + 1]];
      for (i += 2; i < lines.length && TABLE_ROW.test(lines[i]); i++) rows.push(lines[i]);
      i -= 1;
      out.push(table(rows));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*]|\d+\.)\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, heading[1].length + 2);
      out.push(`<h${level}>${inline(heading[2])}</h${level}>`);
    } else if (item) {
      if (paragraph.length) {
        out.push(`<p>${inline(paragraph.join(" "))}</p>`);
        paragraph = [];
      }
      if (!list) out.push("<ul>");
      list = true;
      out.push(`<li>${inline(item[1])}</li>`);
    } else if (line.trim() === "") {
      flush();
    } else if (list && /^\s+/.test(line)) {
      out[out.length - 1] = out[out.length - 1].replace(/<\/li>$/, ` ${inline(line.trim())}</li>`);
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return out.join("\n");
}

/** A rule text as written (docs of plain text): each paragraph, its lines kept. */
export function plainText(source: string): string {
  return source
    .replace(/\r\n/g, "\n")
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => `<p class="plain">${escape(block)}</p>`)
    .join("\n");
}

/** The rule text without what only a developer needs: the lines naming source files. */
export function forPlayers(source: string): string {
  return source
    .split("\n\n")
    .filter((block) => !/^(Rule text|Module|Source|Code):/m.test(block.trim()))
    .join("\n\n");
}
