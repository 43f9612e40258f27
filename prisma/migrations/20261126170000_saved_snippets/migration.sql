-- Saved snippets (messaging): a user's texts to insert into messages.
CREATE TABLE "saved_snippets" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "title" VARCHAR(60) NOT NULL,
    "content" TEXT NOT NULL,
    "date_created" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_snippets_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "saved_snippets_user_id_id_idx" ON "saved_snippets"("user_id", "id");
