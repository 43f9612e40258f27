import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { serviceBot, type ServiceBotRow } from './bot-services.readonly.sql';

export type { ServiceBotRow } from './bot-services.readonly.sql';

/** READ-ONLY view of users-groups' bots and their services, for the outgoing webhook worker. */
@Injectable()
export class BotServicesReadonlyRepository {
  constructor(private readonly pg: PgService) {}

  async serviceBot(realmId: number, botId: number): Promise<ServiceBotRow | undefined> {
    return (await this.pg.run(serviceBot, realmId, botId))[0];
  }
}
