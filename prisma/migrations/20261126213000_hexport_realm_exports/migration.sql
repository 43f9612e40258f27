-- Organization data exports (uploads service): Zulip's RealmExport.
CREATE TABLE "realm_exports" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "acting_user_id" INTEGER,
    "export_type" SMALLINT NOT NULL,
    "status" SMALLINT NOT NULL DEFAULT 1,
    "date_requested" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "date_started" TIMESTAMPTZ(6),
    "date_succeeded" TIMESTAMPTZ(6),
    "date_failed" TIMESTAMPTZ(6),
    "date_deleted" TIMESTAMPTZ(6),
    "export_path" TEXT,
    "tarball_size_bytes" BIGINT,
    "sha256sum_hex" CHAR(64),
    "stats" JSONB,

    CONSTRAINT "realm_exports_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "realm_exports_realm_id_date_requested_idx" ON "realm_exports"("realm_id", "date_requested");
