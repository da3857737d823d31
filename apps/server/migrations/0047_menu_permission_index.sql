-- Who holds a permission (the users told of a new inspection task, of a stock alert…): found from
-- the menu by its permission string, then role_menu, user_role (both indexed). Without this index
-- every such lookup read the whole menu table.
CREATE INDEX menu_permissions_idx ON menu (menu_permissions);
