/**
 * Who may ask what: principals, the policy that maps them to database roles, and the part of a
 * schema a role may read. Plain Java: the catalog privileges are read elsewhere (store package).
 */
package dev.schemarag.core.access;
