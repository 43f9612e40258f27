export * from './prisma.service';
export * from './pg.service';
export * from './db.module';
export { Prisma } from './generated/prisma/client';
export type {
  RealmModel,
  UserModel,
  ApiKeyModel,
  CustomProfileFieldModel,
  StreamModel,
  SubscriptionModel,
  MessageModel,
  UserMessageModel,
  DraftModel,
  UserTopicModel,
} from './generated/prisma/models';
export * from './stored-id';
