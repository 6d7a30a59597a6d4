"""The touchscreen app (Kivy, 800×480): screens over the referee session.

``run_app(simulate)`` in :mod:`companion.ui.app` starts it. Nothing here imports Kivy at
package import: :mod:`companion.ui.environment` must set Kivy's environment first. See
docs/app.md.
"""
