/** An error that becomes an HTTP response of the single error shape (API.md §0). */
export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ErrorBody {
  error_code: number;
  message: string;
  path: string;
}

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
