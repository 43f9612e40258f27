import { Injectable } from '@nestjs/common';
import { PgService } from '@teamchat/db';
import { channelsWithMessagesSince, subscriberCounts } from './channel-stats.sql';

/** Channel listings' counts over `subscriptions` (active accounts only) and `messages`. */
@Injectable()
export class ChannelStatsRepository {
  constructor(private readonly pg: PgService) {}

  /** How many active subscribers with active accounts each of these channels has (none: absent). */
  async subscriberCounts(streamIds: number[]): Promise<Map<number, number>> {
    return new Map((await this.pg.run(subscriberCounts, streamIds)).map((row) => [row.streamId, row.count]));
  }

  /** Which of these channels have a message sent since a time. */
  async channelsWithMessagesSince(streamIds: number[], since: Date): Promise<number[]> {
    return (await this.pg.run(channelsWithMessagesSince, streamIds, since)).map((row) => row.streamId);
  }
}
