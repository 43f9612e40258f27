import { SetMetadata, applyDecorators } from '@nestjs/common';
import { COMMAND_REGISTRY, type CommandDef, type ServiceName } from '@teamchat/contracts';

export const COMMAND_DEF = Symbol('COMMAND_DEF');

/** Subjects bound in this process; a second handler for one subject is a programming error. */
const boundSubjects = new Set<string>();

/** The commands of `service` that no loaded handler serves (checked at start). */
export function unhandledCommands(service: ServiceName): string[] {
  return COMMAND_REGISTRY.filter((def) => def.service === service && !boundSubjects.has(def.subject)).map(
    (def) => def.subject,
  );
}

/**
 * Marks the one handler of a command. With a queue group, two handlers of one subject would
 * split its messages between them, so a duplicate fails at class definition.
 */
export function CommandHandler(def: CommandDef<unknown, unknown>): MethodDecorator {
  if (boundSubjects.has(def.subject)) throw new Error(`Two handlers for ${def.subject}`);
  boundSubjects.add(def.subject);
  return applyDecorators(SetMetadata(COMMAND_DEF, def));
}

/**
 * Marks a command handler's parameter that receives the command's payload (CommandServer calls
 * the handler with it). It records nothing: Nest's own `@Payload` is the same marker, but
 * importing it loaded @nestjs/microservices, a fifth of each service's start.
 */
export const Payload = (): ParameterDecorator => () => undefined;
