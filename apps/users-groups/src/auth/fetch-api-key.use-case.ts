import { Injectable } from '@nestjs/common';
import type { ApiCommand, FetchApiKeyResult, UsersGroups } from '@teamchat/contracts';
import { ZulipError, badRequest, type DecodedParams } from '@teamchat/zulip';
import { CredentialsRepository } from '../data/credentials.repository';
import { OrganizationsRepository } from '../data/organizations.repository';
import { generateApiKey } from './api-keys';
import { PasswordAttempts } from './password-attempts';
import { withPasswordHashing } from './passwords';

type Params = DecodedParams<typeof UsersGroups.fetchApiKeyParams>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

/**
 * POST /fetch_api_key (zerver/views/auth.py api_fetch_api_key). A wrong password and an
 * unknown user look the same; deactivation is told only to someone who knows the password.
 * Failed attempts per username are limited (PasswordAttempts); a correct password clears them.
 */
@Injectable()
export class FetchApiKey {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly credentials: CredentialsRepository,
    private readonly attempts: PasswordAttempts,
  ) {}

  async execute({ realm: realmRef, params }: ApiCommand<Params>): Promise<FetchApiKeyResult> {
    const realm = await this.organizations.byId(realmRef.id);
    if (!realm) throw new ZulipError('NONEXISTENT_SUBDOMAIN', 'Invalid subdomain');
    if (realm.deactivated) throw new ZulipError('REALM_DEACTIVATED', 'This organization has been deactivated');
    if (!realm.passwordAuthEnabled) {
      throw new ZulipError('PASSWORD_AUTH_DISABLED', 'Password authentication is disabled in this organization');
    }
    const username = params.username.trim();
    if (!EMAIL_PATTERN.test(username)) throw badRequest('Enter a valid email address.');

    const wait = await this.attempts.secondsToWait(realm.id, username);
    if (wait > 0) throw new ZulipError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { 'retry-after': wait });

    // A place in the hashing queue before the lookup: under a burst, a refused login costs nothing.
    const { user, passwordOk } = await withPasswordHashing(async (hasher) => {
      const user = await this.credentials.loginCandidate(realm.id, username);
      return { user, passwordOk: await hasher.verify(user?.password?.hash, params.password) };
    });
    if (!user || !passwordOk) {
      await this.attempts.failed(realm.id, username);
      throw new ZulipError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    }
    if (!user.isActive) throw new ZulipError('USER_DEACTIVATED', 'Account is deactivated');
    await this.attempts.succeeded(realm.id, username);

    const apiKey = user.apiKey?.key ?? (await this.credentials.ensureApiKey(user.id, generateApiKey()));
    return { api_key: apiKey, email: user.deliveryEmail, user_id: user.id };
  }
}
