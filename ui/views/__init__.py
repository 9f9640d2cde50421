"""One module per page: the Streamlit blocks that page draws."""
