/** A request whose bytes do not follow the protocol: the server closes the connection that sent it. */
export class MalformedMessageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MalformedMessageError";
  }
}
