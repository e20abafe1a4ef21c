"""The web: one blueprint package per feature (routes, forms; templates in ``templates/<blueprint>/``),
the factory in :mod:`scorekeeper.web.app`, and what the blueprints share beside them."""
