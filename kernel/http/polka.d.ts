// The part of polka 0.5 that Sluice uses (the published typings tie it to Express's types).
declare module "polka" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  type Next = (error?: unknown) => void;
  type Handler = (req: IncomingMessage, res: ServerResponse, next: Next) => unknown;

  interface PolkaOptions {
    onError?: (error: unknown, req: IncomingMessage, res: ServerResponse, next: Next) => void;
    onNoMatch?: (req: IncomingMessage, res: ServerResponse) => void;
  }

  interface Polka {
    add(method: string, pattern: string, ...handlers: Handler[]): Polka;
    use(...handlers: Handler[]): Polka;
    find(method: string, url: string): false | { params: Record<string, string>; handlers: Handler[] };
    handler(req: IncomingMessage, res: ServerResponse): void;
  }

  function polka(options?: PolkaOptions): Polka;
  export = polka;
}
