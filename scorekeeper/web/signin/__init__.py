"""Who you are: signing in and out, the first admin's setup, joining a night with its code, your account."""
