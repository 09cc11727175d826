/** The notifier's settings, read and checked before it starts. */
import { common, ConfigError, int, loadConfig, str, sweepInterval, url } from '@gateway/config';
import { checkMailbox } from './domain/header-safety.js';

export const notifierSettings = {
  ...common,
  databaseUrl: url('DATABASE_URL', undefined, ['postgres:', 'postgresql:'], { secret: true }),
  port: int('PORT', 8089, { min: 0, max: 65535 }),
  dbPoolMax: int('DB_POOL_MAX', 10, { min: 1, max: 200 }),
  /** D20: the mail server, smtp:// (STARTTLS when offered) or smtps:// (TLS from the start); its user and password, if any, in the URL. */
  smtpUrl: url('SMTP_URL', 'smtp://127.0.0.1:1025', ['smtp:', 'smtps:'], { secret: true }),
  /** The From of every mail: an address, or `Name <address>`. */
  mailFrom: str('MAIL_FROM', 'Paiements <no-reply@gateway.local>'),
  /** How long one SMTP exchange (connect, greeting, each reply) may take. */
  smtpTimeoutMs: int('SMTP_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
  /** How often a replica looks for due mails (a new mail is sent at once besides). */
  sendIntervalSeconds: sweepInterval('MAIL_SEND_INTERVAL_SECONDS', 10),
  /** The wait after a mail's first failed attempt, doubled after each next one up to MAIL_RETRY_MAX_SECONDS (D13). */
  retryFirstSeconds: int('MAIL_RETRY_FIRST_SECONDS', 30, { min: 1, max: 86_400 }),
  retryMaxSeconds: int('MAIL_RETRY_MAX_SECONDS', 3_600, { min: 1, max: 86_400 }),
  /** Attempts before a mail is given up (marked failed); with the defaults, about a day of trying. */
  maxAttempts: int('MAIL_MAX_ATTEMPTS', 30, { min: 1, max: 1_000 }),
  /** Mails one replica takes at once; each holds one SMTP exchange. */
  sendBatch: int('MAIL_SEND_BATCH', 20, { min: 1, max: 500 }),
  /** How long a replica holds a mail it is sending; past it another may send it (the holder died). Longer than an SMTP exchange. */
  leaseSeconds: int('MAIL_LEASE_SECONDS', 120, { min: 1, max: 86_400 }),
  /** Mails sent, given up or dropped are deleted after this many days (they hold buyers' addresses); a pending mail is kept. */
  retentionDays: int('MAIL_RETENTION_DAYS', 30, { min: 1, max: 3_650 }),
  /** Mails the retention sweep deletes per statement: small, so no lock is held long. */
  retentionBatch: int('MAIL_RETENTION_BATCH', 1_000, { min: 1, max: 100_000 }),
  /** D29: the mails one address may get in any hour, whatever their kind; the rest are dropped (never sent) and counted. */
  mailPerRecipientPerHour: int('MAIL_PER_RECIPIENT_PER_HOUR', 10, { min: 1, max: 10_000 }),
  /** Receipts written at once from the broker. */
  eventPrefetch: int('EVENT_PREFETCH', 16, { min: 1, max: 256 }),
  /** How long a replica's receipts go by a merchant's receipts switch as read (its own change at once, another replica's within this); 0 reads it for each. */
  receiptSettingsCacheMs: int('RECEIPT_SETTINGS_CACHE_MS', 1_000, { min: 0, max: 300_000 }),
  /** How long a replica's receipts show a merchant's logo and colour as the checkout last answered (on top of the checkout's BRANDING_CACHE_MS); 0 asks for each. */
  receiptBrandingCacheMs: int('RECEIPT_BRANDING_CACHE_MS', 1_000, { min: 0, max: 300_000 }),
};

export type NotifierConfig = ReturnType<typeof loadNotifierConfig>;

export function loadNotifierConfig(env: Record<string, string | undefined> = process.env) {
  const config = loadConfig(notifierSettings, env);
  const problems: string[] = [];
  if (checkMailbox(config.mailFrom) === undefined) problems.push('MAIL_FROM must be an address or Name <address>, without control characters');
  if (config.retryMaxSeconds < config.retryFirstSeconds) problems.push('MAIL_RETRY_MAX_SECONDS must be at least MAIL_RETRY_FIRST_SECONDS');
  if (config.leaseSeconds * 1000 <= config.smtpTimeoutMs) problems.push('MAIL_LEASE_SECONDS must be longer than SMTP_TIMEOUT_MS: a mail still being sent would be sent again');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}
