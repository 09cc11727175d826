/** Wiring of the notifier service: database (the mail queue, the receipts switches), broker (its events and commands), the sender, health. */
import { schemaOf } from '@gateway/contracts';
import { CommandServer, EventConsumer, RpcClient } from '@gateway/messaging';
import type { Logger } from '@gateway/observability';
import { every, healthApp, listen, openServiceBase, serviceMigrations, type RunningService, type ServiceDefinition } from '@gateway/runtime';
import { MailQueueRepository } from './db/mail-queue.repository.js';
import { ReceiptSettingsRepository } from './db/receipt-settings.repository.js';
import { purgeOldMails } from './domain/purge-old-mails.js';
import { keptBrands } from './domain/receipt-brands.js';
import { sendDueMails } from './domain/send-due-mails.js';
import type { ReceiptSources } from './domain/write-receipt.js';
import { smtpTransport } from './mail/smtp-transport.js';
import { notifierCommands } from './messaging/notifier.commands.js';
import { notifierEvents } from './messaging/notifier.events.js';
import { notifierSettings, loadNotifierConfig, type NotifierConfig } from './config.js';


export const SCHEMA = schemaOf('notifier');

export const migrations = serviceMigrations('notifier', import.meta.url);

async function startNotifierService(config: NotifierConfig, log: Logger): Promise<RunningService> {
  const { pool, broker, readiness, close } = openServiceBase('notifier', SCHEMA, config, log);
  const mails = new MailQueueRepository(pool, config.mailPerRecipientPerHour);
  const transport = smtpTransport(config);
  // The mail server is no readiness check: while it is away mails wait in the mail queue, and the service is still ready to write them.
  const http = await listen(healthApp(readiness), config);
  const sender = every(
    config.sendIntervalSeconds,
    'mail-sender',
    async () => {
      await sendDueMails({
        mails,
        transport,
        retry: { first: config.retryFirstSeconds, max: config.retryMaxSeconds },
        maxAttempts: config.maxAttempts,
        batch: config.sendBatch,
        leaseSeconds: config.leaseSeconds,
        log,
      });
    },
    log,
  );
  let stopping = false;
  // On the sender's interval: retention has no hurry, and one cheap indexed statement finds nothing most times.
  const retention = every(
    config.sendIntervalSeconds,
    'mail-retention',
    async () => {
      const deleted = await purgeOldMails({ mails, retentionDays: config.retentionDays, batch: config.retentionBatch, stopping: () => stopping });
      if (deleted > 0) log.info({ deleted }, 'mails past retention deleted');
    },
    log,
  );
  // D20: the owners a notice goes to are the dashboard's to name.
  const rpc = new RpcClient(broker, config.rpcTimeoutMs);
  const ownersOf = async (merchantId: string) => (await rpc.call('team.owners', { merchant_id: merchantId })).body.data;
  // D20: the merchant's receipts switch is the notifier's; its branding the checkout's.
  const receiptSettings = new ReceiptSettingsRepository(pool, config.receiptSettingsCacheMs);
  const receiptSources: ReceiptSources = {
    receiptsEnabled: (merchantId, livemode) => receiptSettings.receiptsEnabledForReceipt(merchantId, livemode),
    brandOf: keptBrands(async (merchantId) => {
      const branding = (await rpc.call('branding.get', { merchant_id: merchantId })).body;
      return { ...(branding.logo_url !== null && { logoUrl: branding.logo_url }), ...(branding.accent_color !== null && { accentColor: branding.accent_color }) };
    }, config.receiptBrandingCacheMs),
  };
  await broker.start();
  await broker.register(rpc);
  await broker.register(
    new EventConsumer(broker, {
      service: 'notifier',
      log,
      prefetch: config.eventPrefetch,
      changes: notifierEvents({ mails, receiptSources, ownersOf, log }),
      // A new receipt goes out at once, not at the next look; once stopping, the next replica (or start) sends it.
      afterCommit: () => {
        if (!stopping) void sender.runNow();
      },
    }),
  );
  // The dashboard's invitations and password resets: written to the mail queue, sent at once.
  const peopleMails = { mails, log, afterWrite: () => void (stopping ? undefined : sender.runNow()) };
  await broker.register(new CommandServer(broker, { service: 'notifier', log, handlers: notifierCommands({ peopleMails, receiptSettings, clock: () => new Date() }) }));
  void sender.runNow();
  return {
    port: http.port,
    async stop() {
      stopping = true;
      await http.close();
      await Promise.all([sender.stop(), retention.stop()]);
      transport.close();
      await close();
    },
  };
}

/** The notifier service, as its process entry and the in-process launcher start it. */
export const service: ServiceDefinition<NotifierConfig> = { name: 'notifier', settings: notifierSettings, loadConfig: loadNotifierConfig, start: startNotifierService };
