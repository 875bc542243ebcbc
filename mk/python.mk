# The Python binding: its tests, a pip install, a wheel.

# A wheel of the Python binding with this checkout's library inside (paywire/libpaywire.so.1), for
# a virtualenv anywhere (docs/getting-started/python.md: `make -C ../paywire python-wheel`). The
# release's wheel (make dist) is the same, tagged manylinux by auditwheel with its own SQLite.
PY_WHEEL_DIR := $(BUILD)/python
.PHONY: python-wheel
python-wheel: lib
	rm -rf $(PY_WHEEL_DIR) && mkdir -p $(PY_WHEEL_DIR)/src
	cp -R bindings/python/paywire bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md $(PY_WHEEL_DIR)/src/
	find $(PY_WHEEL_DIR)/src/paywire -name __pycache__ -prune -exec rm -rf {} +
	cp $(LIBDIR)/$(LIB_REAL) $(PY_WHEEL_DIR)/src/paywire/$(LIB_SONAME)
	python3 -m pip wheel -q --no-deps -w $(PY_WHEEL_DIR) $(PY_WHEEL_DIR)/src
	rm -rf $(PY_WHEEL_DIR)/src
	@echo "python-wheel: $$(ls $(PY_WHEEL_DIR)/paywire-*.whl)"

# The binding's tests, and a pip install of it into a fresh virtualenv that finds the library.
test-python: lib deps
	PAYWIRE_LIBRARY=$(LIBDIR)/$(LIB_REAL) PYTHONPATH=bindings/python python3 -m pytest -q bindings/python/tests tests/peers
	@rm -rf $(BUILD)/venv && python3 -m venv --system-site-packages $(BUILD)/venv
	$(BUILD)/venv/bin/python -m pip install -q --no-deps ./bindings/python
	@rm -rf bindings/python/build
	cd $(BUILD) && PAYWIRE_LIBRARY=$(CURDIR)/$(LIBDIR)/$(LIB_SONAME) venv/bin/python -c \
	  'import paywire; c = paywire.Client({"profile_id": "pip"}); print("pip-installed binding:", paywire.__file__, c.call("get_sdk_version")["version"]); c.close()'
