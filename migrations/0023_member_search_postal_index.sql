-- 0023: postal-code searches across every pool.
--
-- A search that names no pool now covers every pool (issue 25) instead of
-- the first pool of the list. Its postal-code filter cannot use
-- member_search_pool_postal_idx, whose leading column is the pool: without
-- this index the all-pools « dans le 8e » search reads the whole table
-- (a sequential scan of 61,663 rows, ~25–40 ms on the 70,000-venue bench,
-- against < 1 ms for one pool). With it, both are a bitmap scan of the few
-- rows of that postal code.
CREATE INDEX member_search_postal_idx ON member_search (postal_code);
