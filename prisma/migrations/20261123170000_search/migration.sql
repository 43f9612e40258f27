-- Search (the `search` narrow operator) and the `has:` operators.

-- What the renderer found in a message, set at send in the message's INSERT (Zulip's
-- has_link, has_image, has_attachment).
ALTER TABLE "messages" ADD COLUMN "has_link" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "has_image" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "has_attachment" BOOLEAN NOT NULL DEFAULT false;

-- The full-text document of a message: its topic and its rendered HTML (the default parser
-- skips the tags), stemmed with the english configuration. Kept by the database: a generated
-- column is recomputed whenever the topic or the rendered content changes (edits, topic moves).
ALTER TABLE "messages" ADD COLUMN "search_tsvector" tsvector
  GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "topic" || ' ' || "rendered_content")) STORED;

CREATE INDEX "messages_search_tsvector_idx" ON "messages" USING GIN ("search_tsvector");
