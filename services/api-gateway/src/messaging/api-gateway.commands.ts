/** The gateway's command queue: the operator commands (D13, D15) and the dashboard's commands it answers, each calling one use case. */
import type { CommandHandlers } from '@gateway/messaging';
import type { SecretBox } from '@gateway/secrets';
import type { AuditLogRepository } from '../db/audit-log.repository.js';
import { listKeys, rotateKey } from '../domain/api-keys.js';
import { listAuditLog } from '../domain/audit-log.js';
import type { AdminDeps } from '../domain/deps.js';
import { approveKyb, createKey, createMerchant, revealKey, revokeKey, setLimits, setMerchantStatus } from '../domain/merchant-admin.js';
import { getMerchant, listMerchants } from '../domain/merchant-reads.js';

export interface GatewayCommandDeps {
  admin: AdminDeps;
  auditLog: AuditLogRepository;
  /** The gateway's secret box, whose data keys an operator re-wraps. */
  secrets: SecretBox;
}

/** The command table. */
export function gatewayCommands(deps: GatewayCommandDeps): CommandHandlers {
  const { admin } = deps;
  return {
    'merchant.create': async (command, meta) => ({ body: await createMerchant(admin, command, meta.correlationId) }),
    'merchant.approve_kyb': async (command, meta) => ({ body: await approveKyb(admin, command, meta.correlationId) }),
    'merchant.suspend': async (command, meta) => ({ body: await setMerchantStatus(admin, command.merchant_id, 'suspended', meta.correlationId) }),
    'merchant.reactivate': async (command, meta) => ({ body: await setMerchantStatus(admin, command.merchant_id, 'active', meta.correlationId) }),
    'api_key.create': async (command) => ({ body: await createKey(admin, command) }),
    'api_key.revoke': async (command, meta) => {
      const { revoked, merchantId } = await revokeKey(admin, command, meta.correlationId);
      return { body: revoked, merchantId };
    },
    'api_key.reveal': async (command) => ({ body: await revealKey(admin, command) }),
    'api_gateway.secrets.rewrap': async () => ({ body: await deps.secrets.rewrap() }),
    'limits.set': async (command, meta) => ({ body: await setLimits(admin, command, meta.correlationId) }),
    'audit.list': async (query) => ({ body: await listAuditLog(deps.auditLog, query) }),
    'merchant.list': async (query) => ({ body: await listMerchants(admin, query) }),
    'merchant.get': async (query) => ({ body: await getMerchant(admin, query) }),
    'api_key.list': async (query) => ({ body: await listKeys(admin, query) }),
    'api_key.rotate': async (command, meta) => ({ body: await rotateKey(admin, command, meta.correlationId) }),
  };
}
