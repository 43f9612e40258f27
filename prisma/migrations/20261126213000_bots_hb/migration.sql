-- AlterTable
ALTER TABLE "users" ADD COLUMN     "bot_config_data" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "default_all_public_streams" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "default_events_register_stream_id" INTEGER,
ADD COLUMN     "default_sending_stream_id" INTEGER;

-- CreateTable
CREATE TABLE "bot_services" (
    "id" SERIAL NOT NULL,
    "user_id" INTEGER NOT NULL,
    "name" VARCHAR(100) NOT NULL,
    "base_url" TEXT NOT NULL,
    "token" VARCHAR(32) NOT NULL,
    "interface" SMALLINT NOT NULL DEFAULT 1,

    CONSTRAINT "bot_services_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "bot_services_user_id_idx" ON "bot_services"("user_id");

-- AddForeignKey
ALTER TABLE "bot_services" ADD CONSTRAINT "bot_services_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

