-- Linkifiers (Zulip's RealmFilter) and code playgrounds (RealmPlayground), owned by messaging.
CREATE TABLE "realm_linkifiers" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "pattern" TEXT NOT NULL,
    "url_template" TEXT NOT NULL,
    "order" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "realm_linkifiers_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "realm_linkifiers_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "realm_linkifiers_realm_id_pattern_key" ON "realm_linkifiers"("realm_id", "pattern");

CREATE TABLE "realm_playgrounds" (
    "id" SERIAL NOT NULL,
    "realm_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "pygments_language" VARCHAR(40) NOT NULL,
    "url_template" TEXT NOT NULL,

    CONSTRAINT "realm_playgrounds_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "realm_playgrounds_realm_id_fkey" FOREIGN KEY ("realm_id") REFERENCES "realms"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE UNIQUE INDEX "realm_playgrounds_realm_id_pygments_language_name_key" ON "realm_playgrounds"("realm_id", "pygments_language", "name");
