// The Replicate API's connection, model description and error, shared by the client and the model look-up.

export interface ReplicateConnection {
  token: string;
  /** API origin, default https://api.replicate.com (tests point it at a local server). */
  baseUrl: string;
  pollMs: number;
  /** Bound on one whole run: create, polling and the download of the output. */
  timeoutMs: number;
}

/** Which model runs: an official model "owner/name", or a version id (which wins when both are set). */
export interface ReplicateModel {
  model?: string;
  version?: string;
}

export type ReplicateErrorKind =
  /** The API answered an error status (`status`, and its `detail` text). */
  | 'http'
  | 'unreachable'
  | 'timeout'
  /** Not JSON, or no prediction id. */
  | 'bad-answer'
  /** The prediction failed (`detail`: the model's error). */
  | 'failed'
  | 'canceled'
  | 'no-output'
  /** The output is on a host the API does not use. */
  | 'output-host'
  /** The output could not be downloaded (`status` when the host answered an error). */
  | 'download';

export class ReplicateError extends Error {
  constructor(
    readonly kind: ReplicateErrorKind,
    readonly detail = '',
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`Replicate ${kind}${status ? ` (HTTP ${status})` : ''}${detail ? `: ${detail}` : ''}`, options);
    this.name = 'ReplicateError';
  }
}
