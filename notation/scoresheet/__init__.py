"""Scoresheets: reading paper move lists (tokens, layouts), the least-cost repair search, and
rendering the result as text, HTML and SVG."""
