-- Each insert updates the search index itself rather than a pending list that some later
-- insert must merge (a latency spike on whichever send fills the list).
ALTER INDEX "messages_search_tsvector_idx" SET (fastupdate = off);
