/** A SASL token that does not follow its mechanism's format, or that reports the other side's refusal. */
export class SaslMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SaslMessageError";
  }
}
