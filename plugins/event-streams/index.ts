/**
 * GET /api/v1/streams/{id}/subscribe/{eventType}: the application's event stream as server-sent events
 * (docs/api.md#event-streams). Every stream keeps its last `server.sse.history.size` events for clients that reconnect with
 * Last-Event-ID; every subscriber has a buffer of `server.sse.buffer.size` frames; idle connections get a
 * keep-alive comment every `server.sse.keepalive.ms`. Streams end when their application stops.
 */
import type { ServerResponse } from "node:http";
import {
  configSection,
  APPLICATION_LOOKUP,
  type ApplicationLookup,
  type EventRecord,
  JSON_RENDERER,
  type JsonRenderer,
  type Logger,
  notFound,
  optional,
  type Plugin,
  type PluginContext,
  PROCESS_METRICS,
  type ProcessMetrics,
  type RouteSpec,
  type SluiceConfig,
  type SluiceRequest,
  STREAMS_RUNTIME_TOKEN,
} from "sluice";
import { ApplicationChannels } from "./application-channels";
import { FlushScheduler } from "./flush-scheduler";
import { SseSubscriber } from "./sse-subscriber";

export const SUBSCRIBE_PATH = "/api/v1/streams/:id/subscribe/:eventType";

const SUBSCRIBE_SPEC: RouteSpec = {
  summary: "An application's event stream as server-sent events",
  description: "Opens with retry: 3000; each record is an event (id, event: the type, data: {key, value, timestamp}); a keep-alive comment every server.sse.keepalive.ms. Last-Event-ID resumes from the stream's recent history.",
  tags: ["events"],
  pathParameters: {
    id: { description: "The application.id of an application of this process" },
    eventType: { description: "One of the application's event stream types (GET /api/v1/streams/{id}/subscriptions)" },
  },
  responses: {
    200: { description: "The event stream, open until the client leaves or the application stops", contentType: "text/event-stream; charset=utf-8", schema: { type: "string" } },
    404: "Unknown application or event stream",
  },
};

interface SseSettings {
  bufferSize: number;
  historySize: number;
  keepAliveMs: number;
}

/** The plugin's sub-section of `server`. */
export const SSE_CONFIG = configSection({
  name: "server.sse",
  doc: "Server-sent event streams of the applications (`GET /api/v1/streams/{id}/events`).",
  keys: {
    "keepalive.ms": { type: "integer", default: 15_000, min: 1, doc: "Interval of keep-alive comments on server-sent event streams." },
    "history.size": { type: "integer", default: 1_000, min: 0, doc: "Events each event stream keeps for clients that reconnect with Last-Event-ID." },
    "buffer.size": { type: "integer", default: 1_000, min: 1, doc: "Events buffered per subscriber; a slower subscriber loses its oldest ones." },
  },
});

export class EventStreamsPlugin implements Plugin {
  readonly configSections = [SSE_CONFIG];
  readonly requires = [JSON_RENDERER, optional(STREAMS_RUNTIME_TOKEN), optional(PROCESS_METRICS)];
  private lookup!: ApplicationLookup;
  private logger!: Logger;
  private settings!: SseSettings;
  private channels!: ApplicationChannels;
  private keepAliveTimer: NodeJS.Timeout | undefined;
  private readonly flushes = new FlushScheduler();
  private removeMetricsSource: (() => void) | undefined;
  private metrics: ProcessMetrics | undefined;

  configure({ config, components, routes, logger }: PluginContext): void {
    this.settings = readSettings(config);
    this.lookup = components.resolve(APPLICATION_LOOKUP);
    this.metrics = components.resolveOptional(PROCESS_METRICS);
    this.logger = logger.child({ plugin: "event-streams" });
    const json = components.resolve(JSON_RENDERER);
    this.channels = new ApplicationChannels(this.settings.historySize, (applicationId, record) => this.encode(json, applicationId, record));
    routes.get(SUBSCRIBE_PATH, (req, res) => this.subscribe(req, res), { spec: SUBSCRIBE_SPEC });
  }

  /**
   * Attaches to the applications already running, so their history starts before the first subscriber, and reports
   * subscribers and dropped events to the process metrics when a plugin provides them.
   */
  start(): void {
    for (const application of this.lookup.applications()) this.channels.of(application);
    this.removeMetricsSource = this.metrics?.addEventStreamSource(() => this.channels.figures());
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.settings.keepAliveMs);
    this.keepAliveTimer.unref();
  }

  close(): void {
    this.removeMetricsSource?.();
    clearInterval(this.keepAliveTimer);
    for (const channel of this.channels.all()) for (const subscriber of channel.connected()) subscriber.end();
    this.channels.detachAll();
  }

  /** The record's data line through the serializer modules; a record they cannot render is logged and skipped. */
  private encode(json: JsonRenderer, applicationId: string, record: EventRecord): string | undefined {
    const context = { application: applicationId, stream: record.type };
    try {
      const key = json.render(record.key ?? null, { ...context, field: "key", serde: record.keySerde });
      const value = json.render(record.value ?? null, { ...context, field: "value", serde: record.valueSerde });
      return JSON.stringify({ key, value, timestamp: record.timestamp });
    } catch (error) {
      this.logger.error("event not sent: its record cannot be rendered as JSON", { application: applicationId, type: record.type, error });
      return undefined;
    }
  }

  private subscribe(req: SluiceRequest, res: ServerResponse): void {
    const { id, eventType } = req.params;
    const application = this.lookup.require(id);
    const channel = this.channels.of(application).get(eventType);
    if (!channel) throw notFound(`Application '${id}' has no event stream '${eventType}'`);

    const subscriber = new SseSubscriber(res, this.settings.bufferSize, this.flushes);
    const leave = channel.join(subscriber, lastEventId(req));
    const stopWaitingForStop = application.eventHub().onClose(() => subscriber.end());
    this.logger.debug("subscriber connected", { application: id, type: eventType });
    res.once("close", () => {
      leave();
      stopWaitingForStop();
      this.logger.debug("subscriber released", { application: id, type: eventType, dropped: subscriber.dropped });
    });
  }

  private keepAlive(): void {
    for (const channel of this.channels.all()) for (const subscriber of channel.connected()) subscriber.keepAlive();
  }
}

/** Their ranges are checked with the configuration. */
function readSettings(config: SluiceConfig): SseSettings {
  const sse = config.of(SSE_CONFIG);
  return { bufferSize: sse.get("buffer.size"), historySize: sse.get("history.size"), keepAliveMs: sse.get("keepalive.ms") };
}

/** The Last-Event-ID a reconnecting client sends; an id this server cannot have written resumes nothing. */
function lastEventId(req: SluiceRequest): number | undefined {
  const header = req.headers["last-event-id"];
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}
