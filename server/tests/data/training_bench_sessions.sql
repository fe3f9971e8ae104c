-- The 20 training sessions of tests/training_bench.rs: 10 guidelines and
-- 10 verdicts on venues of the queried pools, of the queried kinds of event.
INSERT INTO training_sessions (verdict, reason, category, event_type, directives, source)
SELECT 'guideline', 'Consigne de test ' || i, 'ambiance',
       (ARRAY['cocktail','seminaire','soiree','formation','mariage','conference','diner','cocktail','seminaire','soiree'])[i],
       jsonb_build_object('trigger', (ARRAY['festif','direction','gala','formation','champêtre','conférence','dîner','chic','séminaire','soirée'])[i],
                          'prefer', jsonb_build_array('jardin', 'terrasse', 'vue'),
                          'avoid', jsonb_build_array('sous-sol', 'bruyant')),
       'import'
  FROM generate_series(1, 10) AS i;
INSERT INTO training_sessions (verdict, reason, category, event_type, member_id, source)
SELECT (ARRAY['rejected','demoted'])[1 + (n % 2)], 'Verdict de test', 'other',
       (ARRAY['cocktail','seminaire','soiree','formation','mariage'])[1 + (n % 5)], id, 'import'
  FROM (SELECT m.id, row_number() OVER () AS n FROM members m JOIN pools p ON p.id = m.pool_id
         WHERE p.slug IN ('lieux-atypiques','hotels','restaurants','salles-seminaires','chateaux')
           AND m.postal_code IN ('75008','75011','75016','75009','75012')
         ORDER BY m.id LIMIT 10) x;
