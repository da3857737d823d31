-- Issue 38 §2: a Phase II chart over 100,000 subgroups answers within 300 ms. The chart reads its
-- series twice — the capability sums by subgroup size and the points in time order — and both now
-- come from this index alone (index-only, already in (measured_at, id) order: no heap reads and no
-- sort of 100,000 rows spilling to disk). It replaces the series index of 0027 (same keys).
CREATE INDEX measurement_subgroup_chart_idx
  ON measurement_subgroup (characteristic, equipment_id, product_id, measured_at, id)
  INCLUDE (sample_size, mean, range, ss_dev);
DROP INDEX measurement_subgroup_series_idx;
