-- Muted users and alert words (messaging).
-- CreateTable
CREATE TABLE "muted_users" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "muted_user_id" INTEGER NOT NULL,
    "date_muted" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "muted_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_words" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "user_id" INTEGER NOT NULL,
    "word" VARCHAR(100) NOT NULL,

    CONSTRAINT "alert_words_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "muted_users_muted_user_id_user_id_idx" ON "muted_users"("muted_user_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "muted_users_user_id_muted_user_id_key" ON "muted_users"("user_id", "muted_user_id");

-- CreateIndex
CREATE INDEX "alert_words_realm_id_idx" ON "alert_words"("realm_id");

-- CreateIndex
CREATE INDEX "alert_words_user_id_id_idx" ON "alert_words"("user_id", "id");


-- One alert word per user whatever its case (Zulip compares them case-insensitively).
CREATE UNIQUE INDEX "alert_words_user_id_lower_word_key" ON "alert_words"("user_id", lower("word"));
