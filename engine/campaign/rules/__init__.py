"""The campaign's rules as pure functions over the lists and tables: limits, costs, rating, injuries,
advances, exploration, income, the post-battle sequence's state. No storage, no SQL."""
