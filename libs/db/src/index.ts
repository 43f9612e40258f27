export * from './prisma.service';
export * from './pg.service';
export * from './model-columns';
export * from './db.module';
export * from './group-membership.sql';
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
  SavedSnippetModel,
  RealmLinkifierModel,
  RealmPlaygroundModel,
  RealmDomainModel,
  UserTopicModel,
  UserGroupModel,
  NavigationViewModel,
  EmailChangeRequestModel,
  ChannelFolderModel,
  ScheduledMessageModel,
  PreregistrationUserModel,
  MultiuseInviteModel,
} from './generated/prisma/models';
export * from './stored-id';
export * from './same-name';
export * from './connections';
export * from './event-outbox';
