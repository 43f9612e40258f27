-- The users who turned on push or email notifications for every channel they are in: few, so
-- push finds them among a channel message's recipients without reading every recipient's row
-- (push.candidate_recipients, whose predicate this must match word for word).
CREATE INDEX "users_stream_notifications_idx" ON "users" ("id")
  WHERE (settings->'enable_stream_push_notifications' = 'true' OR settings->'enable_stream_email_notifications' = 'true');
