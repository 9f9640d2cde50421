"""Presentation without Streamlit: frames, figures, tables, the proposal and its writers."""
