"""Scoresheets: reading paper move lists (tokens, layouts), the noisy channel of a box and the
beam search over whole readings (one copy or several), and rendering the result as text, HTML
and SVG."""
