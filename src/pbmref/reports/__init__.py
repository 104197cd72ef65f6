"""What players read: turn reports as text, SVG maps and an HTML archive.

Renderers read only positions and events as stored (plain data); they never
recompute rules.
"""
