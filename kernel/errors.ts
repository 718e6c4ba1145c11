/** Errors that stop startup with a message meant for the person running Sluice (no stack trace needed). */
export class StartupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StartupError";
  }
}
