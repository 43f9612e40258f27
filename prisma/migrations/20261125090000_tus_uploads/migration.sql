-- Resumable uploads in progress (uploads service): the tus state every replica shares, while the
-- bytes are parts in file storage under tus/<id>/<offset>.
CREATE TABLE "tus_uploads" (
    "id" TEXT NOT NULL,
    "size" BIGINT NOT NULL,
    "offset" BIGINT NOT NULL DEFAULT 0,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "parts" TEXT[] NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "tus_uploads_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "tus_uploads_created_at_idx" ON "tus_uploads"("created_at");
