/** A match's live entries: the SSE stream with a one-use ticket (EventSource cannot send a
 * bearer token), reconnecting after the last version it saw; after repeated failures, the
 * long-poll of /events. Either way each entry reaches `onEntry` once, in order. */
import { lobby } from "./api";
import { lang } from "./i18n";

export interface Entry {
  version: number;
  kind?: string;
  events?: Record<string, unknown>[];
  [field: string]: unknown;
}

const SSE_ATTEMPTS = 3;

export class Feed {
  private source: EventSource | null = null;
  private stopped = false;
  private failures = 0;
  mode: "stream" | "poll" | "connecting" = "connecting";

  constructor(
    private readonly matchId: string,
    private last: number,
    private readonly onEntry: (entry: Entry) => void,
  ) {}

  start(): void {
    void this.openStream();
  }

  stop(): void {
    this.stopped = true;
    this.source?.close();
    this.source = null;
  }

  private deliver(entry: Entry): void {
    if (entry.version <= this.last) return;
    this.last = entry.version;
    this.onEntry(entry);
  }

  private async openStream(): Promise<void> {
    if (this.stopped) return;
    const { data, error } = await lobby.POST("/v1/matches/{match_id}/stream-ticket", { params: { path: { match_id: this.matchId } } });
    if (error || !data?.stream || this.stopped) return this.failed();
    // An EventSource sends no header of the app's (its Accept-Language is the browser's
    // own): the language chosen in the app goes in the URL, for the entries' sentences.
    const url = `${data.stream}${data.stream.includes("?") ? "&" : "?"}after=${this.last}&lang=${lang()}`;
    const source = new EventSource(url);
    this.source = source;
    source.addEventListener("open", () => {
      this.mode = "stream";
      this.failures = 0;
    });
    source.addEventListener("entry", (event) => this.deliver(JSON.parse((event as MessageEvent).data) as Entry));
    source.addEventListener("finished", () => {
      // The match is over and the server ends the stream: nothing more will come.
      this.stop();
    });
    source.addEventListener("reconnect", () => {
      source.close();
      void this.openStream();
    });
    source.addEventListener("error", () => {
      source.close(); // a ticket is good for one connection: the next one needs a new ticket
      this.failed();
    });
  }

  private failed(): void {
    if (this.stopped) return;
    this.failures += 1;
    if (this.failures >= SSE_ATTEMPTS) void this.poll();
    else setTimeout(() => void this.openStream(), 500 * this.failures);
  }

  private async poll(): Promise<void> {
    this.mode = "poll";
    while (!this.stopped) {
      const { data, error } = await lobby.GET("/v1/matches/{match_id}/events", {
        params: { path: { match_id: this.matchId }, query: { after: this.last, wait: 25 } },
      });
      if (error || !data) {
        await new Promise((resolve) => setTimeout(resolve, 2000));
        continue;
      }
      for (const entry of (data.entries ?? []) as Entry[]) this.deliver(entry);
      if ((data as { finished?: boolean }).finished) return this.stop();
      if (!data.entries?.length) await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
