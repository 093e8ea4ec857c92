"""Which paddle APIs always break the graph (Paddle's add_break_graph_apis)."""

# id(api) -> api: a call of one of these while translating is a graph break (SOT020) and runs
# as a concrete step with the real object.
BREAK_GRAPH_APIS = {}


def add_break_graph_apis(apis):
    """Makes each callable in `apis` break the graph where translated code calls it."""
    if callable(apis):
        apis = [apis]
    for api in apis:
        if not callable(api):
            raise TypeError('add_break_graph_apis: %r is not callable' % (api,))
        BREAK_GRAPH_APIS[id(api)] = api


def is_break_graph_api(obj):
    return BREAK_GRAPH_APIS.get(id(obj)) is obj


__all__ = ['add_break_graph_apis', 'is_break_graph_api', 'BREAK_GRAPH_APIS']
