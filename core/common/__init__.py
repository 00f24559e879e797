"""Foundation helpers every layer may use: time values, input checks, async twins."""
