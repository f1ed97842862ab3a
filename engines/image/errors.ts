/** A problem with the uploaded file that the buyer can fix; `message` is safe to show them. */
export class ImageInputError extends Error {
  readonly status: number;
  constructor(message: string, status = 400) {
    super(message);
    this.name = 'ImageInputError';
    this.status = status;
  }
}

/** A configured colorization backend (model file, hosted API) failed; `message` is user-facing. */
export class ColorizerError extends Error {
  constructor(message: string, readonly cause?: unknown) {
    super(message);
    this.name = 'ColorizerError';
  }
}
