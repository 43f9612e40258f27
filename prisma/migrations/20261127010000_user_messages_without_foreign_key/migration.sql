-- user_messages.message_id stops being a foreign key: its check ran once per row, and a send to a
-- large channel writes a row per recipient in one statement (1,000 rows: the check doubled the
-- cost of the insert). What ON DELETE CASCADE of the key did a statement-level trigger does: the rows
-- of the messages a statement deleted (a message, a topic) go with
-- them, found through the message_id index of user_messages.
ALTER TABLE "user_messages" DROP CONSTRAINT "user_messages_message_id_fkey";

-- (Semicolons inside the body written as \073, as in the earlier migrations: Prisma splits statements at them.)
CREATE FUNCTION delete_user_messages_of_deleted_messages() RETURNS TRIGGER LANGUAGE plpgsql
  AS E'BEGIN DELETE FROM user_messages WHERE message_id IN (SELECT id FROM deleted_messages)\073 RETURN NULL\073 END';

CREATE TRIGGER messages_delete_user_messages
AFTER DELETE ON messages
REFERENCING OLD TABLE AS deleted_messages
FOR EACH STATEMENT EXECUTE FUNCTION delete_user_messages_of_deleted_messages();
