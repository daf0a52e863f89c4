// Who may use the guarded commands and how often anyone may: read from the environment by
// src/config/index.ts, taken by the commands (commands/index.ts). One shape for both.

/** The allow-lists of /email and /host (EMAIL_ALLOWED_*, HOST_ALLOWED_*). */
export interface CommandAccess {
  emailUsers: string[];
  emailRoles: string[];
  emailDomains: string[];
  hostUsers: string[];
  hostRoles: string[];
}

/** RATE_LIMIT_PER_MINUTE and SAY_DAILY_CHARS. */
export interface CommandLimits {
  perUserPerMinute: number;
  sayDailyChars: number;
}
