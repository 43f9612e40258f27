import { Injectable } from '@nestjs/common';
import { PrismaService, userIdsWithEmail, type UserModel } from '@teamchat/db';
import { badRequest } from '@teamchat/zulip';
import { generateApiKey } from '../auth/api-keys';
import { MIN_PASSWORD_LENGTH, hashPassword } from '../auth/passwords';

/** Passwords and API keys of an existing account (the admin command line uses these). */
@Injectable()
export class AccountCredentials {
  constructor(private readonly prisma: PrismaService) {}

  async findByEmail(realmId: number, email: string): Promise<UserModel> {
    const [id] = await userIdsWithEmail(this.prisma, realmId, email.trim());
    const user = id === undefined ? null : await this.prisma.user.findUnique({ where: { id } });
    if (!user) throw badRequest(`No such user: ${email}`);
    return user;
  }

  async setPassword(userId: number, password: string): Promise<void> {
    if (password.length < MIN_PASSWORD_LENGTH) throw badRequest('New password is too weak!');
    const hash = await hashPassword(password);
    await this.prisma.passwordCredential.upsert({
      where: { userId },
      create: { userId, hash },
      update: { hash, updatedAt: new Date() },
    });
  }

  async apiKey(userId: number): Promise<string> {
    const record = await this.prisma.apiKey.upsert({
      where: { userId },
      create: { userId, key: generateApiKey() },
      update: {},
    });
    return record.key;
  }

  /** Replaces the key; the old one stops working once the gateway's short auth cache expires. */
  async rotateApiKey(userId: number): Promise<string> {
    const key = generateApiKey();
    await this.prisma.apiKey.upsert({
      where: { userId },
      create: { userId, key },
      update: { key, createdAt: new Date() },
    });
    return key;
  }
}
