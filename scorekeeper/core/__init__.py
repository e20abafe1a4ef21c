"""The core: models, database, the use cases (the only writers), read models, history, exports, backup. No Flask."""
