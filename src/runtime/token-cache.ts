import type { CallTelemetry, TokenReason } from './telemetry.js';

/**
 * Access-token cache of one credential: reused until shortly before it expires, refreshed by a single
 * request however many calls need it at once, and dropped when the server answers 401.
 */
export interface IssuedToken {
  readonly accessToken: string;
  /** Lifetime in seconds, as the token response gives it. */
  readonly expiresIn: number;
}

export interface TokenCacheOptions {
  /** Requests a new token from the server, for `reason`, on behalf of the call that needed it first. */
  readonly issue: (reason: TokenReason, requester: CallTelemetry | undefined) => Promise<IssuedToken>;
  /** Renew this many seconds before expiry, so a token never expires in flight. Default 60. */
  readonly skewSeconds?: number;
  readonly now?: () => number;
}

export class TokenCache {
  private current: { token: string; renewAt: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly issue: TokenCacheOptions['issue'];
  /** Why the next token request is made, when there is no token to judge: the last one was refused, or none was had. */
  private withoutToken: TokenReason = 'first';
  private readonly skewMs: number;
  private readonly now: () => number;

  constructor(options: TokenCacheOptions) {
    this.issue = options.issue;
    this.skewMs = (options.skewSeconds ?? 60) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** A valid access token, from the cache or from one shared token request (in the telemetry of the call that started it). */
  async get(requester?: CallTelemetry): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return this.current.token;
    this.inFlight ??= this.refresh(this.current ? 'expiry' : this.withoutToken, requester).finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  /** The cached token while it is valid, else null: what get() would give at once, without a promise. */
  fresh(): string | null {
    return this.current && this.now() < this.current.renewAt ? this.current.token : null;
  }

  /** The cached token, if any, without refreshing (for scrubbing it from logs). */
  peek(): string | null {
    return this.current?.token ?? null;
  }

  /** Forget `token` (the server rejected it); a newer token already cached is kept. */
  invalidate(token: string): void {
    if (this.current?.token !== token) return;
    this.current = null;
    this.withoutToken = 'rejected';
  }

  private async refresh(reason: TokenReason, requester: CallTelemetry | undefined): Promise<string> {
    const issued = await this.issue(reason, requester);
    // A lifetime shorter than twice the skew would be renewed on every call; keep half of it instead.
    const lifetimeMs = issued.expiresIn * 1000;
    const renewAt = this.now() + Math.max(lifetimeMs - this.skewMs, lifetimeMs / 2);
    this.current = { token: issued.accessToken, renewAt };
    this.withoutToken = 'expiry';
    return issued.accessToken;
  }
}
