import { Controller } from '@nestjs/common';
import { UsersGroups, type PayloadOf } from '@teamchat/contracts';
import { CommandHandler, Payload } from '@teamchat/platform';
import { AddNavigationView } from './add-navigation-view.use-case';
import { EditNavigationView } from './edit-navigation-view.use-case';
import { ListNavigationViews } from './list-navigation-views.use-case';
import { RemoveNavigationView } from './remove-navigation-view.use-case';

@Controller()
export class NavigationViewsHandler {
  constructor(
    private readonly listUseCase: ListNavigationViews,
    private readonly addUseCase: AddNavigationView,
    private readonly editUseCase: EditNavigationView,
    private readonly removeUseCase: RemoveNavigationView,
  ) {}

  @CommandHandler(UsersGroups.listNavigationViews)
  list(@Payload() payload: PayloadOf<typeof UsersGroups.listNavigationViews>) {
    return this.listUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.addNavigationView)
  add(@Payload() payload: PayloadOf<typeof UsersGroups.addNavigationView>) {
    return this.addUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.editNavigationView)
  edit(@Payload() payload: PayloadOf<typeof UsersGroups.editNavigationView>) {
    return this.editUseCase.execute(payload);
  }

  @CommandHandler(UsersGroups.removeNavigationView)
  remove(@Payload() payload: PayloadOf<typeof UsersGroups.removeNavigationView>) {
    return this.removeUseCase.execute(payload);
  }
}
