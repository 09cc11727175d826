/**
 * Operator signatures (D17): who may command. An operator command carries, in
 * a message header, a compact JWS (EdDSA, Ed25519) made with the operator's
 * private key, whose claims bind it to that one message: its id (`jti`), its
 * type (`cmd`) and a digest of the whole envelope (`dig`), for a minute. A
 * service checks it against the operators' public keys before it runs the
 * command; a token that fails any check is refused with the reason.
 */
import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose';
import type { Envelope } from '@gateway/contracts';

export type { JWK } from 'jose';

/** The message header the token travels in. */
export const OPERATOR_SIGNATURE_HEADER = 'x-operator-signature';

/** How long a signed command may be used: long enough to cross a busy broker, too short to be worth stealing. */
const SIGNATURE_LIFETIME_SECONDS = 60;

/** How far the clocks of the operator's machine and of a service may disagree. */
const CLOCK_SKEW_SECONDS = 5;

const ALG = 'EdDSA';
const TOKEN_TYPE = 'operator-command+jwt';

/** Why an operator command was refused; the label of the refusal metric. */
export type RefusalReason = 'missing' | 'malformed' | 'unknown-key' | 'bad-signature' | 'expired' | 'wrong-command' | 'altered' | 'replayed' | 'no-actor';

/**
 * A public key operator commands may be signed with. A door's key (the
 * dashboard's, `"door": "dashboard"` in OPERATOR_PUBLIC_KEYS) signs only for a
 * person it names in the token (`act`), and only what that door may do; an
 * operator's own key has an operator's authority.
 */
export type OperatorPublicJwk = JWK & { readonly door?: string };

/** An operator command that may not run; `reason` says which check it failed. */
export class OperatorSignatureError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The key the token named, when it could be read: for the log, never the token itself. */
    readonly keyId?: string,
  ) {
    super(message);
    this.name = 'OperatorSignatureError';
  }
}

/** JSON with the keys of every object sorted, so that both ends digest the same bytes whatever the key order on the wire. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (base64url) of the canonical JSON of the whole envelope: id, type, correlation and data. */
export function envelopeDigest(envelope: Envelope): string {
  return createHash('sha256').update(canonicalJson(envelope)).digest('base64url');
}

/** An operator's Ed25519 key pair as JWKs, named (`kid`) by the public key's RFC 7638 thumbprint. */
export async function generateOperatorKey(): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  const meta = { kid, alg: ALG, use: 'sig' };
  return { privateJwk: { ...(await exportJWK(privateKey)), ...meta }, publicJwk: { ...publicJwk, ...meta } };
}

/**
 * The person behind a command a door signs (D14, D15): the dashboard signs each
 * command for the user or console operator who asked for it. A user's commands
 * are held to their merchant by the service that runs them.
 */
export interface Actor {
  readonly type: 'user' | 'operator';
  /** usr_... or opr_... */
  readonly id: string;
  readonly email: string;
  /** The address the request came from. */
  readonly address: string;
  /** A user's merchant: the only merchant the command may name. */
  readonly merchantId?: string;
}

/** Signs the operator commands of one operator, with its private JWK. */
export class OperatorSigner {
  private constructor(
    private readonly key: Awaited<ReturnType<typeof importJWK>>,
    readonly keyId: string,
    /** The operator's identity, the `sub` of every token. */
    readonly operator: string,
  ) {}

  /** A signer from a private Ed25519 JWK, which must name its key (`kid`); the operator is `name`, or the kid. */
  static async fromJwk(jwk: JWK, name?: string): Promise<OperatorSigner> {
    if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.d !== 'string') throw new Error('the operator key must be a private Ed25519 JWK');
    if (!jwk.kid) throw new Error('the operator key has no kid (make keys with `gateway-admin operator keygen`)');
    return new OperatorSigner(await importJWK(jwk, ALG), jwk.kid, name || jwk.kid);
  }

  /**
   * The token that lets `envelope`, exactly as it is, run once within the
   * minute after `at` (now); for `actor` when a door signs for one of its users.
   */
  async sign(envelope: Envelope, at: number = Date.now(), actor?: Actor): Promise<string> {
    const now = Math.floor(at / 1000);
    return new SignJWT({ cmd: envelope.type, dig: envelopeDigest(envelope), ...(actor && { act: actorClaim(actor) }) })
      .setProtectedHeader({ alg: ALG, kid: this.keyId, typ: TOKEN_TYPE })
      .setJti(envelope.id)
      .setSubject(this.operator)
      .setIssuedAt(now)
      .setExpirationTime(now + SIGNATURE_LIFETIME_SECONDS)
      .sign(this.key);
  }
}

/** Who signed a command that passed every check, and until when its id must be remembered. */
export interface VerifiedOperator {
  readonly id: string;
  readonly keyId: string;
  readonly expiresAt: Date;
  /** The person the signer signed for, when a door signed. */
  readonly actor?: Actor;
  /** The door whose key signed (the dashboard's): the command is held to what that door may do. */
  readonly door?: string;
}

function actorClaim(actor: Actor): Record<string, string> {
  return { typ: actor.type, sub: actor.id, email: actor.email, addr: actor.address, ...(actor.merchantId !== undefined && { mer: actor.merchantId }) };
}

/** The actor a verified token names; a claim that is there but unreadable refuses the command rather than drop the merchant bound. */
function actorOf(claim: unknown, keyId: string | undefined): Actor | undefined {
  if (claim === undefined) return undefined;
  const c = (claim !== null && typeof claim === 'object' ? claim : {}) as Record<string, unknown>;
  const text = (name: string) => (typeof c[name] === 'string' ? (c[name] as string) : undefined);
  const type = text('typ');
  const id = text('sub');
  if ((type !== 'user' && type !== 'operator') || !id || (type === 'user' && !text('mer'))) {
    throw new OperatorSignatureError('malformed', 'operator signature names an unreadable actor', keyId);
  }
  const merchantId = text('mer');
  return { type, id, email: text('email') ?? '', address: text('addr') ?? '', ...(merchantId !== undefined && { merchantId }) };
}

/**
 * Checks operator tokens against the operators' public keys (several, so that
 * an operator can rotate: the old key stays listed until its last token has
 * expired). Replays are the caller's to refuse: the token is good for as long
 * as `expiresAt`.
 */
export class OperatorSignatureVerifier {
  private readonly keys: ReturnType<typeof createLocalJWKSet>;
  /** The door of each door's key, by kid. */
  private readonly doors = new Map<string, string>();

  constructor(publicKeys: readonly OperatorPublicJwk[]) {
    if (publicKeys.length === 0) throw new Error('no operator public keys');
    const kids = publicKeys.map((jwk) => jwk.kid);
    // A token names its key by kid: a kid given twice could let a door's token pass as an operator's.
    if (kids.some((kid) => !kid) || new Set(kids).size !== kids.length) throw new Error('every operator public key needs a kid of its own');
    for (const { kid, door } of publicKeys) if (kid && door) this.doors.set(kid, door);
    this.keys = createLocalJWKSet({ keys: publicKeys.map(({ door: _door, ...jwk }) => ({ ...jwk, alg: ALG })) });
  }

  /** The operator who signed `token` for exactly `envelope`; throws OperatorSignatureError otherwise. */
  async verify(envelope: Envelope, token: string | undefined): Promise<VerifiedOperator> {
    if (!token) throw new OperatorSignatureError('missing', 'operator command without an operator signature');
    let keyId: string | undefined;
    let claims: Record<string, unknown>;
    try {
      const verified = await jwtVerify(token, this.keys, {
        algorithms: [ALG],
        typ: TOKEN_TYPE,
        clockTolerance: CLOCK_SKEW_SECONDS,
        // Whatever exp a token claims, it is refused once issued longer ago than the lifetime signers use.
        maxTokenAge: SIGNATURE_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS,
        requiredClaims: ['jti', 'sub', 'iat', 'exp', 'cmd', 'dig'],
      });
      keyId = verified.protectedHeader.kid;
      claims = verified.payload;
    } catch (err) {
      throw new OperatorSignatureError(...refusalOf(err), namedKey(token));
    }
    // Every signer names its key: without a kid the key that verified, and so its authority, would be unknown.
    if (keyId === undefined) throw new OperatorSignatureError('malformed', 'operator signature names no key');
    if (claims['cmd'] !== envelope.type) throw new OperatorSignatureError('wrong-command', `signature is for ${String(claims['cmd'])}, not ${envelope.type}`, keyId);
    if (claims['jti'] !== envelope.id || claims['dig'] !== envelopeDigest(envelope)) {
      throw new OperatorSignatureError('altered', 'the command is not the one that was signed', keyId);
    }
    const actor = actorOf(claims['act'], keyId);
    const door = this.doors.get(keyId);
    if (door !== undefined && !actor) throw new OperatorSignatureError('no-actor', `signed with the ${door}'s key for nobody`, keyId);
    return {
      id: String(claims['sub']),
      keyId,
      expiresAt: new Date((Number(claims['exp']) + CLOCK_SKEW_SECONDS) * 1000),
      ...(actor && { actor }),
      ...(door !== undefined && { door }),
    };
  }
}

/** The kid a token names, if it can be read at all. */
function namedKey(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).kid;
  } catch {
    return undefined;
  }
}

/** The reason and message of a failed jwtVerify. */
function refusalOf(err: unknown): [RefusalReason, string] {
  if (err instanceof errors.JWTExpired) return ['expired', 'operator signature expired'];
  if (err instanceof errors.JWKSNoMatchingKey) return ['unknown-key', 'operator signature made with an unknown key'];
  if (err instanceof errors.JWSSignatureVerificationFailed) return ['bad-signature', 'operator signature does not verify'];
  // maxTokenAge: issued too long ago, or with a lifetime longer than allowed.
  if (err instanceof errors.JWTClaimValidationFailed && err.claim === 'iat') return ['expired', 'operator signature too old'];
  return ['malformed', `operator signature unreadable: ${(err as Error).message}`];
}
