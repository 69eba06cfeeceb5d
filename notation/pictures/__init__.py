"""Pictures of games: board diagrams (:mod:`notation.pictures.board`, our own SVG), positions
picked from games (:mod:`notation.pictures.diagram`) and charts of games tables
(:mod:`notation.pictures.charts`, Altair/Vega-Lite, the optional ``notation[charts]`` extra).

Nothing here is imported by ``import notation``: the chart libraries load only when a chart is made.
"""
