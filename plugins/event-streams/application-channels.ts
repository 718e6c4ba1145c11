/** The event channels of every application, one per declared event stream, attached to the application's hub. */
import type { ApplicationHandle, EventRecord, EventStreamFigures } from "sluice";
import { EventChannel } from "./event-channel";

export class ApplicationChannels {
  private readonly byApplication = new Map<string, { application: ApplicationHandle; channels: Map<string, EventChannel> }>();

  constructor(
    private readonly historySize: number,
    private readonly encode: (applicationId: string, record: EventRecord) => string | undefined,
  ) {}

  /**
   * The channels of `application`, created for each declared type on first use and kept across restarts, so
   * ids keep increasing and history survives; re-attached when the application's hub is a new one. An instance
   * terminated and deployed again under its id is another application: it starts with channels of its own.
   */
  of(application: ApplicationHandle): ReadonlyMap<string, EventChannel> {
    let entry = this.byApplication.get(application.id);
    if (entry?.application !== application) {
      for (const channel of entry?.channels.values() ?? []) channel.detach();
      entry = { application, channels: new Map() };
      this.byApplication.set(application.id, entry);
    }
    const { channels } = entry;
    const hub = application.eventHub();
    for (const { type } of hub.declarations()) {
      let channel = channels.get(type);
      if (!channel) channels.set(type, (channel = new EventChannel(type, this.historySize, (record) => this.encode(application.id, record))));
      channel.attach(hub);
    }
    return channels;
  }

  *all(): IterableIterator<EventChannel> {
    for (const { channels } of this.byApplication.values()) yield* channels.values();
  }

  *figures(): IterableIterator<EventStreamFigures> {
    for (const [application, { channels }] of this.byApplication) {
      for (const channel of channels.values()) {
        yield { application, stream: channel.type, subscribers: channel.subscriberCount, droppedEvents: channel.droppedEvents() };
      }
    }
  }

  detachAll(): void {
    for (const channel of this.all()) channel.detach();
    this.byApplication.clear();
  }
}
