-- PostgreSQL's revision 11 is the lookup function of its vocabulary (revision 10), which SQLite does not
-- have. The revision exists on both backends so that their numbers stay one sequence.
SELECT 1;
