import { Injectable } from '@nestjs/common';
import type { UserModel } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { generateApiKey } from '../auth/api-keys';
import { hashPassword, isLongEnough } from '../auth/passwords';
import { CredentialsRepository } from '../data/credentials.repository';
import { UsersRepository } from '../data/users.repository';

/** Passwords and API keys of an existing account (the admin command line uses these). */
@Injectable()
export class AccountCredentials {
  constructor(
    private readonly users: UsersRepository,
    private readonly credentials: CredentialsRepository,
  ) {}

  async findByEmail(realmId: number, email: string): Promise<UserModel> {
    const user = await this.users.byEmail(realmId, email.trim());
    if (!user) throw badRequest(`No such user: ${email}`);
    return user;
  }

  async setPassword(userId: number, password: string): Promise<void> {
    if (!isLongEnough(password)) throw badRequest('New password is too weak!');
    const hash = await hashPassword(password);
    await this.credentials.setPasswordHash(userId, hash);
  }

  async apiKey(userId: number): Promise<string> {
    return this.credentials.ensureApiKey(userId, generateApiKey());
  }

  /** Replaces the key; the old one stops working once the gateway's short auth cache expires. */
  async rotateApiKey(userId: number): Promise<string> {
    const key = generateApiKey();
    await this.credentials.replaceApiKey(userId, key);
    return key;
  }
}
