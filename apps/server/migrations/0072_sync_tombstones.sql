-- Sync (issue 44 §5): a resource's deletions since a moment are read from the audit log
-- (`…/changes`), by entity and time, without walking every audit row of the entity.
CREATE INDEX audit_log_deleted_idx ON audit_log (entity, at) WHERE action = 'delete';
